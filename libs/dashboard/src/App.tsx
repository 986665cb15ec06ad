import { lazy, Suspense, type ComponentType } from 'react';
import { Anchor, AppShell, Button, Group, Loader, Title } from '@mantine/core';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { useSession } from './session';
import { SignInPage } from './pages/SignInPage';
import { AgentsPage } from './pages/AgentsPage';
import { AgentPage } from './pages/AgentPage';

/** A page whose script is loaded when it first opens. */
function onDemand<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

// The first script holds the agents' pages only (what a sign-in opens); the others, and the
// charts of the being and health pages (@mantine/charts, recharts: ~430 KB), come when opened.
const BeingPage = onDemand(() => import('./pages/BeingPage'), 'BeingPage');
const SearchPage = onDemand(() => import('./pages/SearchPage'), 'SearchPage');
const ConversationsPage = onDemand(() => import('./pages/ConversationsPage'), 'ConversationsPage');
const ConversationPage = onDemand(() => import('./pages/ConversationPage'), 'ConversationPage');
const HealthPage = onDemand(() => import('./pages/HealthPage'), 'HealthPage');

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
        <Suspense fallback={<Loader aria-label="Loading the page" size="sm" />}>
          <Routes>
            <Route path="/" element={<Navigate to="/agents" replace />} />
            <Route path="/agents" element={<AgentsPage />} />
            <Route path="/agents/:agent" element={<AgentPage />} />
            <Route path="/agents/:agent/being" element={<BeingPage />} />
            <Route path="/conversations" element={<ConversationsPage />} />
            <Route path="/conversations/:conversationId" element={<ConversationPage />} />
            <Route path="/search" element={<SearchPage />} />
            <Route path="/status" element={<HealthPage />} />
            <Route path="*" element={<Navigate to="/agents" replace />} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
