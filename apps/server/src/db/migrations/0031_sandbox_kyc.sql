-- The sandbox KYC provider's own applications (decisions.md section 5): what its hosted page at
-- /sandbox/kyc/:id shows and decides. It exists for the sandbox only (WALLET_ENV=production refuses
-- sandbox providers). The document number is kept masked (last four digits).
CREATE TABLE sandbox_kyc_applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reference text NOT NULL,
  user_id uuid NOT NULL,
  target_level text NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_review', 'approved', 'rejected', 'canceled')),
  reason text,
  sequence bigint NOT NULL DEFAULT 0,
  document_type text,
  document_number_masked text,
  full_name text,
  birth_date text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
