import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ReadState, type Read } from './ReadState';

/** The list screens a detail screen belongs to. */
type ListPath = '/menus' | '/taxonomies' | '/sections' | '/widget-areas' | '/schema';

interface Props {
  /** The screen's class, shared with its list's (the styles of the area). */
  className: string;
  /** The list the back link leads to, and what the link says. */
  list: ListPath;
  back: string;
  title: string;
  /** What the last action said, announced politely. */
  notice: string;
  /** The read of the thing shown. */
  read: Read;
  children: ReactNode;
}

/**
 * One thing of a list (a menu, a taxonomy, a section, a widget area, a collection's schema): the way
 * back to the list, its title, the status line its actions speak in, and its read's state above
 * what the screen shows of it.
 */
export function DetailScreen({ className, list, back, title, notice, read, children }: Props) {
  return (
    <div className={className}>
      <p>
        <Link to={list}>{back}</Link>
      </p>
      <h1>{title}</h1>
      <p role="status" className="screen-notice">
        {notice}
      </p>
      <ReadState read={read} />
      {children}
    </div>
  );
}

/**
 * How a detail screen ends once its thing is deleted: its read is dropped (read again it would only
 * say "not found"), the list is read again without it, and the list is shown.
 */
export function useLeaveDeleted(list: ListPath, detailKey: QueryKey, listKey: QueryKey): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    queryClient.removeQueries({ queryKey: detailKey });
    await queryClient.invalidateQueries({ queryKey: listKey });
    await navigate({ to: list });
  };
}
