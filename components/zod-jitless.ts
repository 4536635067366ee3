import { z } from "zod";

// Scalar builds its configuration schemas with zod (the same copy as ours) when its modules load, and
// zod then tests whether it may compile validators with `Function("")`. The reference's policy
// forbids evaluating code, so that test only ends in a reported violation; in jitless mode zod skips
// it and validates the same way. Imported before Scalar (scalar-reference-view.tsx), so it runs first.
z.config({ jitless: true });
