import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { i18n } from './i18n/i18n';
import { MediaPickerProvider } from './media/MediaPickerProvider';
import { createPanelRouter } from './router';
import './styles/tokens.css';
import './styles/base.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal will not change by asking again; a network hiccup may.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      // What a route's loader fetched a moment ago is not fetched again when its screen mounts.
      staleTime: 10_000,
      refetchOnWindowFocus: false,
    },
  },
});
const router = createPanelRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MediaPickerProvider>
          <RouterProvider router={router} />
        </MediaPickerProvider>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
