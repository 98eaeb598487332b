import type { Metadata } from '../../src/domain/metadata.js'
import type { DashContext } from './layout.js'

/**
 * A link's or a payment's metadata as a key/value list under its own heading, or nothing when it
 * has none. Each key (ASCII) is isolated left to right and each value in its own direction (a
 * shop may write Arabic or Latin), so neither reorders an Arabic page around it, and both keep
 * the page's alignment.
 */
export function MetadataList(props: { ctx: DashContext; metadata: Metadata; id: string }) {
  const entries = Object.entries(props.metadata)
  if (entries.length === 0) return null
  return (
    <>
      <h2 id={props.id}>{props.ctx.t('sectionMetadata')}</h2>
      <dl class="kv" data-metadata>
        {entries.map(([key, value]) => (
          <>
            <dt>
              <bdi dir="ltr">{key}</bdi>
            </dt>
            <dd>
              <bdi>{value}</bdi>
            </dd>
          </>
        ))}
      </dl>
    </>
  )
}
