/**
 * Sample files of every allowed type for the files suite, made here (no binary fixtures in the repo): images by
 * sharp, containers with their real headers, docx/xlsx as real (stored, uncompressed) zip packages, doc/xls as OLE
 * compound-file headers. Plus the refused: an ELF executable named .png, a text file with a NUL.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';

/** A zip with stored (uncompressed) entries: enough for an Office Open XML package. */
function zip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text, 'utf8');
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** What Word and Excel write: the main part's content type names the document kind. */
const contentTypes = (main: string, type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="${main}" ContentType="${type}.main+xml"/></Types>`;

function ebml(docType: string): Buffer {
  const el = (id: number[], data: Buffer) => Buffer.concat([Buffer.from(id), Buffer.from([0x80 | data.length]), data]);
  const body = Buffer.concat([
    el([0x42, 0x86], Buffer.from([1])),
    el([0x42, 0xf7], Buffer.from([1])),
    el([0x42, 0xf2], Buffer.from([4])),
    el([0x42, 0xf3], Buffer.from([8])),
    el([0x42, 0x82], Buffer.from(docType)),
    el([0x42, 0x87], Buffer.from([4])),
    el([0x42, 0x85], Buffer.from([2])),
  ]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body, Buffer.alloc(64)]);
}

function ftyp(brand: string): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftyp', 4);
  box.write(brand, 8);
  box.write(brand, 16);
  box.write('isom', 20);
  return Buffer.concat([box, Buffer.alloc(256)]);
}

function cfb(): Buffer {
  const head = Buffer.alloc(4096);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(head, 0);
  head.writeUInt16LE(0x3e, 24);
  head.writeUInt16LE(3, 26);
  head.writeUInt16LE(0xfffe, 28);
  head.writeUInt16LE(9, 30);
  return head;
}

export interface Sample {
  name: string;
  type: string;
  bytes: Buffer;
  kind: 'image' | 'video' | 'file';
  mime: string;
}

let made: Promise<Sample[]> | null = null;
/** Made once per run (noise images take a moment to encode). */
export function allowedSamples(): Promise<Sample[]> {
  made ??= makeSamples();
  return made;
}

async function makeSamples(): Promise<Sample[]> {
  // Noise: the images are hundreds of KB, so downloads and ranges cross the 64 KiB encryption chunks.
  const picture = sharp({
    create: {
      width: 640,
      height: 480,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  });
  return [
    {
      name: 'photo.jpg',
      type: 'image/jpeg',
      bytes: await picture.clone().jpeg().toBuffer(),
      kind: 'image',
      mime: 'image/jpeg',
    },
    {
      name: 'photo.png',
      type: 'image/png',
      bytes: await picture.clone().png().toBuffer(),
      kind: 'image',
      mime: 'image/png',
    },
    {
      name: 'anim.gif',
      type: 'image/gif',
      bytes: await picture.clone().gif().toBuffer(),
      kind: 'image',
      mime: 'image/gif',
    },
    {
      name: 'photo.webp',
      type: 'image/webp',
      bytes: await picture.clone().webp().toBuffer(),
      kind: 'image',
      mime: 'image/webp',
    },
    { name: 'clip.mp4', type: 'video/mp4', bytes: ftyp('mp42'), kind: 'video', mime: 'video/mp4' },
    { name: 'clip.mov', type: 'video/quicktime', bytes: ftyp('qt  '), kind: 'video', mime: 'video/quicktime' },
    { name: 'clip.webm', type: 'video/webm', bytes: ebml('webm'), kind: 'video', mime: 'video/webm' },
    {
      name: 'paper.pdf',
      type: 'application/pdf',
      bytes: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      kind: 'file',
      mime: 'application/pdf',
    },
    {
      name: 'notes.txt',
      type: 'text/plain',
      bytes: Buffer.from('hello ✓ plain text\n'),
      kind: 'file',
      mime: 'text/plain',
    },
    { name: 'table.csv', type: 'text/csv', bytes: Buffer.from('a,b\n1,2\n'), kind: 'file', mime: 'text/csv' },
    { name: 'letter.doc', type: 'application/msword', bytes: cfb(), kind: 'file', mime: 'application/msword' },
    {
      name: 'sheet.xls',
      type: 'application/vnd.ms-excel',
      bytes: cfb(),
      kind: 'file',
      mime: 'application/vnd.ms-excel',
    },
    {
      name: 'letter.docx',
      type: 'application/octet-stream',
      kind: 'file',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: zip([
        [
          '[Content_Types].xml',
          contentTypes('/word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
        ],
        ['word/document.xml', '<w:document/>'],
      ]),
    },
    {
      name: 'sheet.xlsx',
      type: 'application/octet-stream',
      kind: 'file',
      mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      bytes: zip([
        [
          '[Content_Types].xml',
          contentTypes('/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
        ],
        ['xl/workbook.xml', '<workbook/>'],
      ]),
    },
  ];
}

/** An ELF executable's header, named and declared as a PNG. */
export const renamedExecutable = (): Sample => ({
  name: 'cute-cat.png',
  type: 'image/png',
  kind: 'image',
  mime: 'image/png',
  bytes: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(1024, 0x90)]),
});

/** A webm voice note header (what MediaRecorder writes first). */
export const voiceNote = (): Buffer => ebml('webm');
