// A minimal PNG reader for the browser test: 8-bit RGB or RGBA, not interlaced (what Chromium's
// screenshots are), decoded with Node's zlib so that the test judges the real screenshot.
import { inflateSync } from 'node:zlib';

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Returns { width, height, channels, pixels } with pixels a Uint8Array of width*height*channels.
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8], color = body[9], interlace = body[12];
      if (depth !== 8 || (color !== 2 && color !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${color}, interlace ${interlace}`);
      }
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; ++i) {
      const a = i >= channels ? out[i - channels] : 0;
      const c = i >= channels ? up[i - channels] : 0;
      const b = up[i];
      const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (pred === undefined) throw new Error(`bad PNG filter ${filter}`);
      out[i] = (line[i] + pred) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

// Pixels farther than tol (sum of |dr|+|dg|+|db|) from the colour rgb.
export function countUnlike(img, rgb, tol = 24) {
  let n = 0;
  const { pixels, channels } = img;
  for (let i = 0; i < pixels.length; i += channels) {
    const d = Math.abs(pixels[i] - rgb[0]) + Math.abs(pixels[i + 1] - rgb[1]) +
      Math.abs(pixels[i + 2] - rgb[2]);
    if (d > tol) ++n;
  }
  return n;
}

// Pixels that differ by more than tol between two images of the same size.
export function countDifferent(x, y, tol = 24) {
  if (x.width !== y.width || x.height !== y.height) return Infinity;
  let n = 0;
  for (let i = 0; i < x.pixels.length; i += x.channels) {
    const d = Math.abs(x.pixels[i] - y.pixels[i]) + Math.abs(x.pixels[i + 1] - y.pixels[i + 1]) +
      Math.abs(x.pixels[i + 2] - y.pixels[i + 2]);
    if (d > tol) ++n;
  }
  return n;
}

// The pixels [r, g, b] of the square of half-width half around (x, y) (rounded), inside the image.
export function pixelsNear(img, x, y, half) {
  const out = [];
  const cx = Math.round(x), cy = Math.round(y);
  for (let j = cy - half; j <= cy + half; ++j) {
    for (let i = cx - half; i <= cx + half; ++i) {
      if (i < 0 || j < 0 || i >= img.width || j >= img.height) continue;
      const k = (j * img.width + i) * img.channels;
      out.push([img.pixels[k], img.pixels[k + 1], img.pixels[k + 2]]);
    }
  }
  return out;
}
