-- Default reference rates (euros per unit), so that prices in every offered currency can be
-- converted from the first start. Operators keep them current with `rates:set`; an existing rate
-- is never overwritten by this seed.
INSERT INTO "currency_rates" ("currency", "eur_per_unit") VALUES
  ('EUR', 1),
  ('RON', 0.2010),
  ('USD', 0.92),
  ('GBP', 1.17)
ON CONFLICT ("currency") DO NOTHING;
