/**
 * The home route: the wallet's home page with the panels other features add to it (held payments,
 * approvals asked of the trusted person, incoming requests). Features never import one another; the
 * app puts them together.
 */
import { ApprovalsPanel, HoldsPanel } from '../features/holds/components/holds-panels.tsx';
import { IncomingRequests } from '../features/requests/components/incoming-requests.tsx';
import { HomePage } from '../features/wallet/pages/home-page.tsx';
import { AreaBoundary } from '../shared/ui/area.tsx';

export function Home() {
  return (
    <HomePage
      panels={
        <>
          <AreaBoundary>
            <HoldsPanel openOnly />
          </AreaBoundary>
          <AreaBoundary>
            <ApprovalsPanel hideWhenEmpty />
          </AreaBoundary>
          <AreaBoundary>
            <IncomingRequests />
          </AreaBoundary>
        </>
      }
    />
  );
}

export default Home;
