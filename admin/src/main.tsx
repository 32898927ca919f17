import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { i18n } from './i18n/i18n';
import { activateLanguage, browserLanguage, chosenLanguage } from './i18n/languages';
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

/** The panel, once its language's messages are there. */
function render() {
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
}

// The person's language first, so that the first paint is in it: English is built in, another is
// one small chunk away (if it cannot load, the panel shows in English rather than not at all).
const language = chosenLanguage() ?? browserLanguage();
if (language === 'en') render();
else void activateLanguage(language).finally(render);
