import { useEffect, useState } from 'react'
import type { JourneyPrefill } from '../../src/api/journey.ts'
import { fetchJson } from '../http.ts'

/** What a Step 2 link pre-fills: the answers, and the token that ties the claim to the intake. */
export interface Prefill {
  token: string
  answers: Record<string, string>
}

const storageKey = (slug: string) => `prefill:${slug}`

/** The token of the link the page was opened by ("#prefill=…"), kept for this tab so a reload keeps it. */
function takeToken(slug: string): string | undefined {
  const hash = new URLSearchParams(window.location.hash.slice(1))
  const fromLink = hash.get('prefill')
  try {
    if (fromLink) {
      sessionStorage.setItem(storageKey(slug), fromLink)
      // out of the address bar: a bookmark or a shared screenshot does not carry it
      history.replaceState(history.state, '', window.location.pathname + window.location.search)
      return fromLink
    }
    return sessionStorage.getItem(storageKey(slug)) ?? undefined
  } catch {
    // storage refused (private mode): the link's token still works for this load
    return fromLink ?? undefined
  }
}

/**
 * Each token's one question to the server for this page load: a text reminder's token answers once
 * (server/journey/open-prefill-link.ts), and React runs an effect twice in development.
 */
const asked = new Map<string, Promise<JourneyPrefill>>()

function askPrefill(token: string, slug: string): Promise<JourneyPrefill> {
  const key = `${slug} ${token}`
  let answer = asked.get(key)
  if (!answer) {
    answer = fetchJson<JourneyPrefill>('/api/journey/prefill', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, app: slug }),
    })
    asked.set(key, answer)
    // a question that failed is asked again by the next mount
    answer.catch(() => asked.delete(key))
  }
  return answer
}

/**
 * The claimant's name, e-mail and phone from the main form, when the page was opened by the link the
 * thank-you page or an e-mail gave. A token the server does not accept pre-fills nothing and shows
 * nothing: the form opens empty as for any visitor.
 */
export function usePrefill(slug: string): Prefill | undefined {
  const [prefill, setPrefill] = useState<Prefill>()
  useEffect(() => {
    const token = takeToken(slug)
    if (!token) return
    let current = true
    askPrefill(token, slug)
      .then((found) => {
        if (!current || !('email' in found)) return
        setPrefill({
          token,
          answers: {
            firstName: found.firstName,
            lastName: found.lastName,
            email: found.email,
            phoneNumber: found.phone,
          },
        })
      })
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [slug])
  return prefill
}

/** Forgets the tab's token once its claim is in. */
export function forgetPrefill(slug: string): void {
  try {
    sessionStorage.removeItem(storageKey(slug))
  } catch {
    // nothing kept
  }
}
