import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import sharp from 'sharp';

/** The media benchmark's inputs (files on disk) and its streamed multipart upload. */

/** A PDF as file-type tells it (the `%PDF-` signature) followed by random bytes: `size` bytes in all. */
export function writePdf(file: string, size: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, '%PDF-1.4\n');
    for (let written = 9; written < size; ) {
      const chunk = randomBytes(Math.min(1024 * 1024, size - written));
      written += fs.writeSync(fd, chunk);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Changes a few bytes after the signature, so the next upload is new bytes and not a duplicate. */
export function makeDistinct(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, randomBytes(32), 0, 32, 9);
  } finally {
    fs.closeSync(fd);
  }
}

/** A photograph-like JPEG: gradients, waves and noise, so it compresses and resizes as a real picture does. */
export async function writeJpeg(file: string, width: number, height: number): Promise<void> {
  const pixels = new Uint8ClampedArray(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      const noise = () => (Math.random() - 0.5) * 40;
      pixels[at] = (255 * x) / width + noise();
      pixels[at + 1] = (255 * y) / height + noise();
      pixels[at + 2] = 128 + 100 * Math.sin(x / 37) * Math.cos(y / 23) + noise();
    }
  }
  await sharp(Buffer.from(pixels.buffer), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toFile(file);
}

export interface UploadResult {
  status: number;
  body: string;
  ms: number;
}

/**
 * One `POST` of `file` as the `file` part of a multipart body, streamed from disk (framing written
 * around a read stream, Content-Length declared); the time runs until the whole answer is read.
 */
export function uploadFile(url: string, token: string, file: string, part: { filename: string; type: string }): Promise<UploadResult> {
  const boundary = `folio-bench-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) };
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
    });
    request.on('error', reject);
    request.write(head);
    // Read in 1 MiB pieces: with the default 64 KiB the client itself spends as much CPU as the server.
    const source = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    source.on('error', (error) => request.destroy(error));
    source.on('end', () => request.end(tail));
    source.pipe(request, { end: false });
  });
}
