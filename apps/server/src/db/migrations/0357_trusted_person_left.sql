-- A trusted person's role ends when their wallet closes or freezes, or when they step down
-- (docs/decisions/history-and-trust.md): the person who named them reads who left and why, until they
-- name another.
CREATE TABLE trusted_people_left (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  trusted_id uuid NOT NULL REFERENCES users (id),
  reason text NOT NULL CHECK (reason IN ('closed', 'frozen', 'left')),
  left_at timestamptz NOT NULL
);

-- Roles of wallets closed before now end as closing ends them: a closed wallet approves nothing.
INSERT INTO trusted_people_left (user_id, trusted_id, reason, left_at)
SELECT t.user_id, t.trusted_id, 'closed', u.closed_at
FROM trusted_people t JOIN users u ON u.id = t.trusted_id
JOIN users p ON p.id = t.user_id AND p.closed_at IS NULL
WHERE u.closed_at IS NOT NULL;
DELETE FROM trusted_people t USING users u
WHERE u.id IN (t.trusted_id, t.user_id) AND u.closed_at IS NOT NULL;
