-- Written by hand (schema.prisma cannot express a function or an expression index); the same
-- statements as prisma/expression-indexes.sql, which the drift test adds to what schema.prisma
-- builds. Two-character "contains" filters (a Chinese name such as 孙静) have no trigram, so
-- pg_trgm cannot serve them: these GIN indexes on the lowercased character bigrams of each column
-- that has a trigram index can (lib/list.ts containsText).

-- the GIN builds below sort millions of keys: more memory than the 64 MB default, this transaction only
SET LOCAL maintenance_work_mem = '256MB';

-- CreateFunction
CREATE OR REPLACE FUNCTION "text_bigrams"(t text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  l text := lower(t);
  r text[] := '{}';
BEGIN
  FOR i IN 1 .. char_length(l) - 1 LOOP
    r := r || substr(l, i, 2);
  END LOOP;
  RETURN r;
END
$$;

-- CreateIndex
CREATE INDEX "standard_file_name_bigram_idx" ON "standard_file" USING GIN (text_bigrams("name"));

-- CreateIndex
CREATE INDEX "access_log_user_account_bigram_idx" ON "access_log" USING GIN (text_bigrams("user_account"));

-- CreateIndex
CREATE INDEX "access_log_user_name_bigram_idx" ON "access_log" USING GIN (text_bigrams("user_name"));

-- CreateIndex
CREATE INDEX "change_notice_title_bigram_idx" ON "change_notice" USING GIN (text_bigrams("title"));
