import { useText } from '../i18n/use-text.ts'

export function SubmitProgress({ percent }: { percent: number }) {
  const t = useText()
  return (
    <div className="progress">
      <div
        className="progress-bar"
        role="progressbar"
        aria-label={t('Submitting your claim')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-text">{percent}%</span>
    </div>
  )
}
