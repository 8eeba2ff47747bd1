import type {
  AcceptInviteRequest,
  InviteAccepted,
  AccountAccessRequest,
  ChangePasswordRequest,
  InviteAccountRequest,
  InviteAnswer,
  InviteLinkInfo,
  MyApps,
  StaffAccountList,
  StaffAccountSummary,
} from '../../../src/api/staff-accounts.ts'
import { fetchJson } from '../../http.ts'

export type { InviteLinkInfo, MyApps, StaffAccountList, StaffAccountSummary }

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' }

function post<T>(url: string, body?: object): Promise<T> {
  return fetchJson<T>(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
}

export function fetchMyApps(signal?: AbortSignal): Promise<MyApps> {
  return fetchJson('/api/staff/my-apps', { signal, cache: 'no-store' })
}

export function fetchAccounts(signal?: AbortSignal): Promise<StaffAccountList> {
  return fetchJson('/api/staff/accounts', { signal, cache: 'no-store' })
}

export function inviteAccount(request: InviteAccountRequest): Promise<InviteAnswer> {
  return post('/api/staff/accounts', request)
}

export function resendInvitation(id: number): Promise<InviteAnswer> {
  return post(`/api/staff/accounts/${id}/invite`)
}

export function changeAccess(id: number, request: AccountAccessRequest): Promise<StaffAccountSummary> {
  return fetchJson(`/api/staff/accounts/${id}/access`, {
    method: 'PUT',
    headers: JSON_HEADERS,
    body: JSON.stringify(request),
  })
}

export function setAccountDisabled(id: number, disabled: boolean): Promise<StaffAccountSummary> {
  return post(`/api/staff/accounts/${id}/${disabled ? 'disable' : 'enable'}`)
}

export function resetTwoFactor(id: number): Promise<StaffAccountSummary> {
  return post(`/api/staff/accounts/${id}/reset-two-factor`)
}

/** The token goes in the body: it came from the link's #fragment, which never reaches a server log. */
export function checkInviteLink(token: string): Promise<InviteLinkInfo> {
  return post('/api/staff/invites/check', { token })
}

export function acceptInviteLink(request: AcceptInviteRequest): Promise<InviteAccepted> {
  return post('/api/staff/invites/accept', request)
}

export async function changeOwnPassword(request: ChangePasswordRequest): Promise<void> {
  await post<void>('/api/staff/account/password', request)
}
