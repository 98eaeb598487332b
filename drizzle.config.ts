import { defineConfig } from 'drizzle-kit'

// The generated SQL is applied by drizzle's migrator on Node and by wrangler (migrations_dir) on D1.
export default defineConfig({
  dialect: 'sqlite',
  schema: './db/schema.ts',
  out: './db/migrations',
})
