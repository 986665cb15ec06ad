import { Alert, Loader, Pagination } from '@mantine/core';
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

/** Page numbers under a list, named for what they page through; nothing when it fits one page. */
export function PageNav(props: {
  label: string;
  pages: number;
  page: number;
  onChange: (page: number) => void;
}) {
  if (props.pages <= 1) return null;
  return (
    <nav aria-label={props.label}>
      <Pagination
        mt="md"
        total={props.pages}
        value={props.page}
        onChange={props.onChange}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
      />
    </nav>
  );
}
