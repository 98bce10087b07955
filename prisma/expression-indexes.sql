-- What prisma/schema.prisma cannot say: functions and expression indexes. Written into
-- migrations by hand (prisma/migrations/*_bigram_contains); the drift test
-- (apps/api/test/migrations.test.ts) runs this file after the SQL schema.prisma gives, and expects
-- the same catalog as prisma/migrations builds. A change here needs a hand-written migration too.
--
-- text_bigrams: the lowercased character bigrams of a text, and a GIN index on them for every
-- column with a trigram index: they serve "contains" filters too short for pg_trgm (a
-- two-character Chinese name), see apps/api/src/lib/list.ts containsText.

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
