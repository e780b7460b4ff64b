-- The words of event content for the search's prefilter (lib/api/search-terms.ts, wordPrefilter):
-- lower-cased runs of letters and digits as PostgreSQL's [:alnum:] sees them, each cut to 200
-- characters; content over 100,000 characters is not split and holds the one lexeme 'long-content'
-- (no word has a '-'), which every prefilter query also accepts. A term's words that stand whole
-- in it must stand whole (or as a prefix) in any content that contains it, so the word index
-- narrows a search to a few events where the trigram index reads every event that shares a
-- common trigram (`htt`, `exa`); the exact ILIKE is still checked on each candidate.
CREATE FUNCTION baton_words(content text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT CASE WHEN length(content) > 100000 THEN 'long-content'::tsvector
    ELSE array_to_tsvector(ARRAY(
      SELECT DISTINCT left(w, 200) FROM unnest(regexp_split_to_array(lower(content), '[^[:alnum:]]+')) AS w WHERE w <> ''
    )) END
$$;

-- CreateIndex
CREATE INDEX "event_content_words_idx" ON "event_content" USING GIN (baton_words("content"));
