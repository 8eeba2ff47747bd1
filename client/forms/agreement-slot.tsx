import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'

interface SlotState {
  slot: HTMLElement | null
  setSlot: (element: HTMLElement | null) => void
}

const AgreementSlotContext = createContext<SlotState | undefined>(undefined)

/**
 * Lets a form's agreement (a Step 2 form's, the main intake's) stand where its signature widget says,
 * just above the pad: the form renders the agreement after its fields (RJSF puts a form's own children
 * there), and the agreement moves itself into the slot the widget leaves (see AgreementBox).
 */
export function AgreementSlotProvider({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null)
  const value = useMemo(() => ({ slot, setSlot }), [slot])
  return <AgreementSlotContext value={value}>{children}</AgreementSlotContext>
}

/** Where the agreement goes; nothing outside an AgreementSlotProvider (a cure). */
export function AgreementSlot() {
  const state = useContext(AgreementSlotContext)
  return state ? <div className="agreement-slot" ref={state.setSlot} /> : null
}

/** The element the agreement should be drawn into, or null to stay where it is rendered. */
export function useAgreementSlot(): HTMLElement | null {
  return useContext(AgreementSlotContext)?.slot ?? null
}
