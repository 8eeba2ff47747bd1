import { useText } from '../i18n/use-text.ts'

/** "Your reference number is IN-000042." with the number kept on one line (its hyphen would break it). */
export function ReferenceLine({ reference }: { reference: string }) {
  const t = useText()
  const [before = '', after = ''] = t('Your reference number is {reference}.').split('{reference}')
  return (
    <p className="reference">
      {before}
      <span className="nowrap">{reference}</span>
      {after}
    </p>
  )
}
