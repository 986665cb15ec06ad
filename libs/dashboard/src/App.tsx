import { lazy, Suspense } from 'react';
import { Anchor, AppShell, Button, Group, Loader, Title } from '@mantine/core';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { useSession } from './session';
import { SignInPage } from './pages/SignInPage';
import { AgentsPage } from './pages/AgentsPage';
import { AgentPage } from './pages/AgentPage';
import { BeingPage } from './pages/BeingPage';
import { SearchPage } from './pages/SearchPage';
import { ConversationsPage } from './pages/ConversationsPage';
import { ConversationPage } from './pages/ConversationPage';

// The health page's charts (@mantine/charts, recharts) are 428 of the script's 936 KB: loaded when it opens.
const HealthPage = lazy(() => import('./pages/HealthPage').then((m) => ({ default: m.HealthPage })));

const SECTIONS = [
  { to: '/agents', label: 'Agents' },
  { to: '/conversations', label: 'Conversations' },
  { to: '/search', label: 'Search' },
  { to: '/status', label: 'Health' },
];

/** The signed-in shell (header with the sections and sign out) around the pages; the sign-in form otherwise. */
export function App() {
  const { key, signOut } = useSession();
  if (!key) return <SignInPage />;
  return (
    <AppShell header={{ height: { base: 96, sm: 60 } }} padding="md">
      <AppShell.Header px="md" py="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={1} size="h3">
            Engram memory
          </Title>
          <Group component="nav" aria-label="Sections" gap="sm" wrap="wrap">
            {SECTIONS.map((section) => (
              <Anchor key={section.to} component={NavLink} to={section.to}>
                {section.label}
              </Anchor>
            ))}
            <Button variant="light" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Routes>
          <Route path="/" element={<Navigate to="/agents" replace />} />
          <Route path="/agents" element={<AgentsPage />} />
          <Route path="/agents/:agent" element={<AgentPage />} />
          <Route path="/agents/:agent/being" element={<BeingPage />} />
          <Route path="/conversations" element={<ConversationsPage />} />
          <Route path="/conversations/:conversationId" element={<ConversationPage />} />
          <Route path="/search" element={<SearchPage />} />
          <Route
            path="/status"
            element={
              <Suspense fallback={<Loader aria-label="Loading the health page" size="sm" />}>
                <HealthPage />
              </Suspense>
            }
          />
          <Route path="*" element={<Navigate to="/agents" replace />} />
        </Routes>
      </AppShell.Main>
    </AppShell>
  );
}
