-- The language a person last signed in with: what others' actions send them (an SMS to a trusted
-- person) speaks it (docs/decisions/language-and-format.md#a-persons-language).
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'ru' CHECK (language IN ('ru', 'en'));
