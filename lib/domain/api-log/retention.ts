/**
 * How long the API log keeps a request, the spec's retention, declared once: its row 365 days, its
 * request and response bodies 30. The portal's reads hide what is older, the partitions job drops
 * it (lib/adapters/jobs/partitions.ts), and a bulk import's lines and results, a request body and
 * what came of it, are kept as long (retention-rules.ts).
 */
export const apiLogDays = 365;
export const apiLogBodyDays = 30;
