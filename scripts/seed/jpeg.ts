import jpeg from 'jpeg-js'

/**
 * JPEGs as a screenshot's file can carry them: plain, or with the metadata an editor leaves (EXIF
 * Software and dates, XMP CreatorTool), for the fraud bench and the screenshot tests.
 */

/** A real baseline JPEG of one light grey. */
export function makeJpeg({ width, height }: { width: number; height: number }): Buffer {
  const data = Buffer.alloc(width * height * 4, 0xee)
  return Buffer.from(jpeg.encode({ data, width, height }, 60).data)
}

/**
 * The JPEG with an EXIF segment: IFD0's Software and DateTime (read as ModifyDate) and, given `taken`,
 * an Exif IFD with DateTimeOriginal.
 * @example withExif(makeJpeg({ width: 750, height: 1334 }), { software: 'Adobe Photoshop 25.0', modified: new Date() })
 */
export function withExif(
  jpegBytes: Buffer,
  { software, taken, modified }: { software: string; taken?: Date; modified: Date },
): Buffer {
  const ascii = (text: string) => Buffer.from(`${text}\0`, 'latin1')
  const values = [ascii(software), ascii(exifDate(modified)), ...(taken ? [ascii(exifDate(taken))] : [])]
  const ifd0Count = taken ? 3 : 2
  const ifd0Size = 2 + ifd0Count * 12 + 4
  const exifIfdSize = taken ? 2 + 12 + 4 : 0
  // the values follow both directories, in the order of `values`
  const valueAt = (n: number) =>
    8 + ifd0Size + exifIfdSize + values.slice(0, n).reduce((sum, value) => sum + value.length, 0)
  const tiff = Buffer.concat([
    Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]),
    uint16(ifd0Count),
    entry(0x0131, 2, values[0]!.length, valueAt(0)),
    entry(0x0132, 2, values[1]!.length, valueAt(1)),
    ...(taken ? [entry(0x8769, 4, 1, 8 + ifd0Size)] : []),
    Buffer.alloc(4),
    ...(taken ? [uint16(1), entry(0x9003, 2, values[2]!.length, valueAt(2)), Buffer.alloc(4)] : []),
    ...values,
  ])
  return withApp1(jpegBytes, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]))
}

/** The JPEG with an XMP packet naming the tool that last wrote it (xmp:CreatorTool). */
export function withXmp(jpegBytes: Buffer, creatorTool: string): Buffer {
  const packet =
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="${creatorTool}"/>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  return withApp1(
    jpegBytes,
    Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(packet, 'utf8')]),
  )
}

/** The JPEG with an APP1 segment right after its SOI marker. */
function withApp1(jpegBytes: Buffer, payload: Buffer): Buffer {
  const header = Buffer.alloc(4)
  header.writeUInt16BE(0xffe1, 0)
  header.writeUInt16BE(payload.length + 2, 2)
  return Buffer.concat([jpegBytes.subarray(0, 2), header, payload, jpegBytes.subarray(2)])
}

/** "YYYY:MM:DD HH:MM:SS", EXIF's date. */
function exifDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/-/g, ':').replace('T', ' ')
}

/** One little-endian IFD entry: tag, type, count, and the value's offset (or the value). */
function entry(tag: number, type: number, count: number, value: number): Buffer {
  const bytes = Buffer.alloc(12)
  bytes.writeUInt16LE(tag, 0)
  bytes.writeUInt16LE(type, 2)
  bytes.writeUInt32LE(count, 4)
  bytes.writeUInt32LE(value, 8)
  return bytes
}

function uint16(value: number): Buffer {
  const bytes = Buffer.alloc(2)
  bytes.writeUInt16LE(value)
  return bytes
}
