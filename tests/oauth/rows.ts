import { sql } from "drizzle-orm";
import { database } from "@/db";

/** Every row a query returns, as one JSON text: to show that a secret appears in none of its columns. */
export async function rows(query: string): Promise<string> {
  const db = await database();
  return JSON.stringify(await db.rows(sql.raw(query)));
}
