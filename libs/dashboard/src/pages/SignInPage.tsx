import { useState, type FormEvent } from 'react';
import { Alert, Button, Container, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { ApiError, rpc } from '../api';
import { useSession } from '../session';

/** Sign-in with an API key: checked against the api (stats) before it is kept for the session. */
export function SignInPage() {
  const { signIn } = useSession();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await rpc(key.trim(), 'stats/get', {});
      signIn(key.trim());
    } catch (cause) {
      setError(cause instanceof ApiError && cause.status === 401 ? 'That key is not valid.' : String(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container size="xs" py="xl" component="main">
      <form onSubmit={submit}>
        <Stack>
          <Title order={1}>Engram memory</Title>
          <Text>Sign in with an API key. It is kept for this browser tab only.</Text>
          <PasswordInput
            label="API key"
            required
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            autoComplete="off"
          />
          {error && (
            <Alert variant="outline" color="red.9" role="alert" title="Could not sign in">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </Container>
  );
}
