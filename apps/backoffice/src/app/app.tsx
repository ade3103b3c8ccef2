/**
 * The back office: the operator signs in, then moves between the screens their role allows. React
 * Router's paths (the server answers index.html for each), TanStack Query for every read; a one-time
 * setup link opens without signing in.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { FraudListPage } from '../features/antifraud/fraud-list-page.tsx';
import { HoldsPage } from '../features/antifraud/holds-page.tsx';
import { AuditPage } from '../features/audit/audit-page.tsx';
import { IdentificationsPage } from '../features/identifications/identifications-page.tsx';
import { JobsPage } from '../features/jobs/jobs-page.tsx';
import { MerchantsPage } from '../features/merchants/merchants-page.tsx';
import { OperatorsPage } from '../features/operators/operators-page.tsx';
import { SetupPage } from '../features/operators/setup-page.tsx';
import { PayoutsPage } from '../features/payouts/payouts-page.tsx';
import { ReconciliationPage } from '../features/reconciliation/reconciliation-page.tsx';
import { ProposeRefund } from '../features/refunds/propose-refund.tsx';
import { RefundsPage } from '../features/refunds/refunds-page.tsx';
import { ConversationPage } from '../features/support/conversation-page.tsx';
import { SupportPage } from '../features/support/support-page.tsx';
import { UserCardPage } from '../features/users/user-card-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { queryClient } from '../shared/api/query-client.ts';
import { Layout, NotFound, RequirePermission } from './layout.tsx';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/setup" element={<SetupPage />} />
          <Route element={<Layout />}>
            <Route index element={<Navigate to="/users" replace />} />
            <Route path="signin" element={<Navigate to="/users" replace />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="users/:id" element={<UserCardPage RefundForm={ProposeRefund} />} />
            <Route path="identifications" element={<IdentificationsPage />} />
            <Route path="refunds" element={<RefundsPage />} />
            <Route path="payouts" element={<PayoutsPage />} />
            <Route path="merchants" element={<MerchantsPage />} />
            <Route path="holds" element={<HoldsPage />} />
            <Route path="fraud-list" element={<FraudListPage />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="support" element={<SupportPage />} />
            <Route path="support/:id" element={<ConversationPage />} />
            <Route path="jobs" element={<JobsPage />} />
            <Route
              path="reconciliation"
              element={
                <RequirePermission permission="reconcile">
                  <ReconciliationPage />
                </RequirePermission>
              }
            />
            <Route
              path="operators"
              element={
                <RequirePermission permission="operators">
                  <OperatorsPage />
                </RequirePermission>
              }
            />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
