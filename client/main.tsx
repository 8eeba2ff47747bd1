import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { rememberLanding } from './attribution.ts'
import { LocaleProvider, loadTexts } from './i18n/locale-provider.tsx'
import { startLocale } from './i18n/locale.ts'
import { AppRouter } from './router.tsx'
import './styles.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// the first landing's campaign parameters, before the router tidies the address
rememberLanding()
const locale = startLocale()
// the language's texts start downloading with the page's code, not after it
void loadTexts(locale)
createRoot(root).render(
  <StrictMode>
    <Suspense>
      <LocaleProvider initialLocale={locale}>
        <AppRouter />
      </LocaleProvider>
    </Suspense>
  </StrictMode>,
)
