import { blobHash } from '../../content/blob-store.js';

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

/** Types served as what they are; anything else (HTML above all) is served as bytes to download. */
const SERVED = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'application/pdf',
  'application/json',
  'text/plain',
  'text/csv',
  'video/mp4',
]);

/** The type a stored file is served with, from its name. */
export function servedType(name: string): string {
  const type = typeFromName(name);
  if (!SERVED.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

export interface FileFacts {
  hash: string;
  contentType: string;
  dimensions?: { width: number; height: number };
}

/** The type a file's name says it has (`application/octet-stream` when it says none we know). */
export function typeFromName(name: string): string {
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** What a stored file reports: its hash, its type (given, or from its name) and image size. */
export function fileFacts(data: Buffer, name: string, given: string | undefined): FileFacts {
  const contentType = given || typeFromName(name);
  const dimensions = imageSize(data);
  return { hash: blobHash(data), contentType, ...(dimensions ? { dimensions } : {}) };
}

/** Width and height from the headers of PNG, GIF and JPEG images. */
function imageSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && data.toString('latin1', 0, 3) === 'GIF') {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 < data.length) {
      if (data[offset] !== 0xff) return undefined;
      const marker = data[offset + 1]!;
      const length = data.readUInt16BE(offset + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
      }
      offset += 2 + length;
    }
  }
  return undefined;
}
