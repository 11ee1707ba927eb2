DROP TABLE token_cutoffs;
DROP TABLE revoked_tokens;
