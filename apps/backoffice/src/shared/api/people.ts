/** What the API answers of people (apps/server/src/ops/people.ts: usersPage, userCard). */
import type { AuditLine } from '../ui/audit-lines.tsx';

export interface User {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  level: string;
  frozen_by: 'self' | 'operator' | null;
  created_at: string;
}

export interface Operation {
  transfer_id: string;
  kind: string;
  amount: string;
  currency: string;
  status: string;
  created_at: string;
  description: string | null;
}

export interface Card {
  user: User;
  accounts: Array<{ id: string; currency: string; balance: string; available: string; pending_in: string }>;
  sessions: Array<{ id: string; user_agent: string; ip: string; last_used_at: string }>;
  operations: Operation[];
  reports: Array<{ id: string; transfer_id: string; reason: string; status: string; created_at: string }>;
  audit: AuditLine[];
}
