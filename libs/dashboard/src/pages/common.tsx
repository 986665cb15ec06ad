import { Alert, Loader } from '@mantine/core';
import { ApiError } from '../api';

/** A query's waiting or failure, said the same way on every page. */
export function QueryState({ loading, error, what }: { loading: boolean; error: unknown; what: string }) {
  if (loading) return <Loader aria-label={`Loading ${what}`} size="sm" />;
  if (error)
    return (
      <Alert variant="outline" color="red.9" role="alert" title={`Could not load ${what}`}>
        {error instanceof ApiError ? `${error.code}: ${error.message}` : String(error)}
      </Alert>
    );
  return null;
}
