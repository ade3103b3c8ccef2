/**
 * QR images made in the test, with no image library: the `qrcode` package gives the module matrix,
 * and these helpers draw it into raw RGBA and transform the pixels (rotate, scale, noise, invert,
 * place on a large photo). Deterministic: noise comes from a seeded generator.
 */
import QRCode from 'qrcode';

export interface Rgba {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export function blank(width: number, height: number, grey = 255): Rgba {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = grey;
    data[i + 1] = grey;
    data[i + 2] = grey;
    data[i + 3] = 255;
  }
  return { width, height, data };
}

/** A QR code drawn with square modules of `moduleSize` pixels and a quiet zone of `quiet` modules. */
export function renderQr(
  content: string | Uint8Array,
  { moduleSize = 6, quiet = 4, level = 'M' as QRCode.QRCodeErrorCorrectionLevel } = {},
): Rgba {
  const segments =
    typeof content === 'string' ? content : ([{ data: content, mode: 'byte' }] as QRCode.QRCodeSegment[]);
  const matrix = QRCode.create(segments, { errorCorrectionLevel: level }).modules;
  const side = (matrix.size + quiet * 2) * moduleSize;
  const image = blank(side, side);
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (!matrix.get(row, col)) continue;
      for (let y = 0; y < moduleSize; y++) {
        for (let x = 0; x < moduleSize; x++) {
          const px = (col + quiet) * moduleSize + x;
          const py = (row + quiet) * moduleSize + y;
          const at = (py * side + px) * 4;
          image.data[at] = 0;
          image.data[at + 1] = 0;
          image.data[at + 2] = 0;
        }
      }
    }
  }
  return image;
}

function sample(image: Rgba, x: number, y: number, channel: number, background: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (px: number, py: number) =>
    px < 0 || py < 0 || px >= image.width || py >= image.height
      ? background
      : (image.data[(py * image.width + px) * 4 + channel] ?? background);
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Turned by `degrees` about the centre (bilinear), on a canvas big enough to hold every corner. */
export function rotate(image: Rgba, degrees: number, background = 255): Rgba {
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const width = Math.ceil(Math.abs(image.width * cos) + Math.abs(image.height * sin));
  const height = Math.ceil(Math.abs(image.width * sin) + Math.abs(image.height * cos));
  const out = blank(width, height, background);
  const cx = image.width / 2;
  const cy = image.height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - width / 2;
      const dy = y - height / 2;
      // Inverse mapping: where in the source this output pixel comes from.
      const sx = dx * cos + dy * sin + cx;
      const sy = -dx * sin + dy * cos + cy;
      const at = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) out.data[at + c] = sample(image, sx, sy, c, background);
    }
  }
  return out;
}

/** Resized by `factor` (bilinear; below 1 a box average first, as a camera or a downscale would). */
export function scale(image: Rgba, factor: number): Rgba {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const out = blank(width, height);
  const step = 1 / factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        if (factor >= 1) {
          out.data[at + c] = sample(image, (x + 0.5) * step - 0.5, (y + 0.5) * step - 0.5, c, 255);
        } else {
          let sum = 0;
          let count = 0;
          for (let sy = Math.floor(y * step); sy < Math.min(image.height, Math.floor((y + 1) * step)); sy++) {
            for (
              let sx = Math.floor(x * step);
              sx < Math.min(image.width, Math.floor((x + 1) * step));
              sx++
            ) {
              sum += image.data[(sy * image.width + sx) * 4 + c] ?? 255;
              count++;
            }
          }
          out.data[at + c] = count ? sum / count : 255;
        }
      }
    }
  }
  return out;
}

/** A small seeded generator (mulberry32): the same noise on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sensor noise of up to `amplitude` levels on every pixel, plus `specks` share of black/white specks. */
export function noisy(image: Rgba, amplitude: number, specks: number, seed = 7): Rgba {
  const random = seeded(seed);
  const data = new Uint8ClampedArray(image.data);
  for (let i = 0; i < data.length; i += 4) {
    const speck = random() < specks ? (random() < 0.5 ? -255 : 255) : 0;
    const shift = speck || (random() * 2 - 1) * amplitude;
    for (let c = 0; c < 3; c++) data[i + c] = (data[i + c] ?? 0) + shift;
  }
  return { ...image, data };
}

/** Light modules on a dark ground, as some screens and stickers show codes. */
export function inverted(image: Rgba): Rgba {
  const data = new Uint8ClampedArray(image.data);
  for (let i = 0; i < data.length; i += 4) {
    for (let c = 0; c < 3; c++) data[i + c] = 255 - (data[i + c] ?? 0);
  }
  return { ...image, data };
}

/** The image pasted onto a larger ground at (left, top): a code somewhere in a photo. */
export function placeOn(image: Rgba, ground: Rgba, left: number, top: number): Rgba {
  const data = new Uint8ClampedArray(ground.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const gx = x + left;
      const gy = y + top;
      if (gx < 0 || gy < 0 || gx >= ground.width || gy >= ground.height) continue;
      const from = (y * image.width + x) * 4;
      const to = (gy * ground.width + gx) * 4;
      for (let c = 0; c < 4; c++) data[to + c] = image.data[from + c] ?? 255;
    }
  }
  return { ...ground, data };
}

/** A "photo" background: a soft diagonal gradient with texture, not a flat white page. */
export function photoGround(width: number, height: number, seed = 3): Rgba {
  const random = seeded(seed);
  const image = blank(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const base = 150 + ((x + y) / (width + height)) * 80 + (random() - 0.5) * 20;
      image.data[at] = base;
      image.data[at + 1] = base - 10;
      image.data[at + 2] = base - 25;
    }
  }
  return image;
}
