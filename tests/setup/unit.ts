import { configureDatabase } from "@/db";

// A unit test proves something without a database; one that opens it belongs with the integration tests.
configureDatabase(() => {
  throw new Error("A test under tests/unit opened the database: it is an integration test (move it out of tests/unit)");
});
