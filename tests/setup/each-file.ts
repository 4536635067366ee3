import { afterAll } from "vitest";
import { closeDatabase } from "@/db";

afterAll(async () => {
  await closeDatabase();
});
