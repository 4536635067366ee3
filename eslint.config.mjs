import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...next,
  ...nextTs,
  // Tests read response bodies member by member; typing each body would only restate the assertions.
  { files: ["tests/**/*.ts", "e2e/**/*.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { ignores: [".next/**", "**/.next/**", ".next-*/**", ".data/**", "db/migrations/**", "next-env.d.ts"] },
];

export default config;
