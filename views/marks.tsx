/** The CIB and Edahabia marks, drawn inline so no request leaves the site. */
export function CardMarks() {
  return (
    <span class="marks" role="img" aria-label="CIB / Edahabia">
      <svg viewBox="0 0 44 28" role="img" aria-label="CIB">
        <rect width="44" height="28" rx="4" fill="#00693e" />
        <text
          x="22"
          y="19"
          font-size="13"
          font-weight="700"
          text-anchor="middle"
          fill="#fff"
          font-family="Arial,sans-serif"
        >
          CIB
        </text>
      </svg>
      <svg viewBox="0 0 60 28" role="img" aria-label="Edahabia">
        <rect width="60" height="28" rx="4" fill="#f2b705" />
        <text
          x="30"
          y="18"
          font-size="9.5"
          font-weight="700"
          text-anchor="middle"
          fill="#1b1f24"
          font-family="Arial,sans-serif"
        >
          EDAHABIA
        </text>
      </svg>
    </span>
  )
}
