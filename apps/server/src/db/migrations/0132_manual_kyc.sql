-- Identification by operator review (KYC_PROVIDER=manual, providers/kyc/manual.ts): the documents a
-- person entered in the app wait here for an operator's decision. The document number is kept
-- encrypted (AES-256-GCM under DOCUMENTS_KEY) beside its masked form; photos, when sent, likewise.
CREATE TABLE manual_kyc_applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reference text NOT NULL,
  user_id uuid NOT NULL,
  target_level text NOT NULL,
  -- pending: waiting for the documents; in_review: waiting for an operator; the rest are final.
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_review', 'approved', 'rejected', 'canceled')),
  reason text,
  sequence bigint NOT NULL DEFAULT 0,
  document_type text,
  document_number_sealed bytea,
  document_number_masked text,
  full_name text,
  birth_date text,
  submitted_at timestamptz,
  decided_at timestamptz,
  decided_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX manual_kyc_applications_review_idx ON manual_kyc_applications (status, submitted_at);
CREATE INDEX manual_kyc_applications_user_idx ON manual_kyc_applications (user_id, created_at DESC);

CREATE TABLE manual_kyc_photos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  application_id uuid NOT NULL REFERENCES manual_kyc_applications (id),
  content_type text NOT NULL,
  sealed bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX manual_kyc_photos_application_idx ON manual_kyc_photos (application_id);
