/**
 * Draws the installed app's icons (web manifest) of every brand into apps/web/public/icons:
 * `node apps/web/scripts/generate-icons.ts`. Any-purpose icons are a rounded tile; maskable
 * ones fill the square and keep the mark inside the central safe circle (radius 40%), since the
 * phone cuts them to its own shape. Drawn from shapes with 4x4 supersampling, written with pngjs.
 * The generated files are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

type Rgb = [number, number, number];
/** Signed distance of a point (in icon units 0..1) to a shape: negative inside. */
type Shape = (x: number, y: number) => number;

interface Layer {
  shape: Shape;
  color: (x: number, y: number) => Rgb;
}

const hex = (value: string): Rgb =>
  [1, 3, 5].map((at) => Number.parseInt(value.slice(at, at + 2), 16)) as Rgb;
const solid = (value: string) => () => hex(value);
const gradient = (from: string, to: string) => (x: number, y: number) => {
  const [a, b, t] = [hex(from), hex(to), Math.min(1, Math.max(0, (x + y) / 2))];
  return a.map((channel, i) => channel + (b[i]! - channel) * t) as Rgb;
};

function roundedRect(left: number, top: number, right: number, bottom: number, radius: number): Shape {
  return (x, y) => {
    const cx = (left + right) / 2;
    const cy = (top + bottom) / 2;
    const qx = Math.abs(x - cx) - ((right - left) / 2 - radius);
    const qy = Math.abs(y - cy) - ((bottom - top) / 2 - radius);
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
  };
}

const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    Math.hypot(x - cx, y - cy) - r;

function segment(ax: number, ay: number, bx: number, by: number, width: number): Shape {
  return (x, y) => {
    const [px, py, dx, dy] = [x - ax, y - ay, bx - ax, by - ay];
    const t = Math.min(1, Math.max(0, (px * dx + py * dy) / (dx * dx + dy * dy)));
    return Math.hypot(px - dx * t, py - dy * t) - width / 2;
  };
}

const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    Math.min(...shapes.map((shape) => shape(x, y)));

/** Scales a mark drawn in a 0..1 box around the icon's centre. */
const scaled =
  (shape: Shape, factor: number): Shape =>
  (x, y) =>
    shape(0.5 + (x - 0.5) / factor, 0.5 + (y - 0.5) / factor) * factor;

interface BrandIcon {
  background: (x: number, y: number) => Rgb;
  /** The mark, as layers drawn over the background. */
  mark: (background: (x: number, y: number) => Rgb) => Layer[];
}

const BRANDS: Record<string, BrandIcon> = {
  // The wallet icon of the default brand (shared/ui/icons.tsx WalletIcon, on the app's blue).
  'e-wallet': {
    background: gradient('#2f6bff', '#7a4dff'),
    mark: (background) => [
      { shape: roundedRect(0.2, 0.3, 0.8, 0.74, 0.08), color: solid('#ffffff') },
      { shape: roundedRect(0.24, 0.25, 0.7, 0.36, 0.05), color: solid('#dce6ff') },
      { shape: roundedRect(0.56, 0.44, 0.84, 0.6, 0.05), color: background },
      { shape: circle(0.65, 0.52, 0.028), color: solid('#ffffff') },
    ],
  },
  // The arrow of brands/grok's logo (src/app/assets/brand-grok.svg).
  grok: {
    background: solid('#111a33'),
    mark: () => [
      {
        shape: union(
          segment(0.3, 0.7, 0.69, 0.31, 0.09),
          segment(0.39, 0.31, 0.69, 0.31, 0.09),
          segment(0.69, 0.31, 0.69, 0.61, 0.09),
        ),
        color: solid('#ffffff'),
      },
    ],
  },
};

function draw(icon: BrandIcon, size: number, maskable: boolean): Buffer {
  const png = new PNG({ width: size, height: size });
  const tile: Shape = maskable ? () => -1 : roundedRect(0.02, 0.02, 0.98, 0.98, 0.22);
  const layers: Layer[] = [
    { shape: tile, color: icon.background },
    ...icon.mark(icon.background).map((layer) => ({
      ...layer,
      shape: maskable ? scaled(layer.shape, 0.72) : layer.shape,
    })),
  ];
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          let color: Rgb | null = null;
          for (const layer of layers) if (layer.shape(x, y) <= 0) color = layer.color(x, y);
          if (color) {
            r += color[0];
            g += color[1];
            b += color[2];
            a += 1;
          }
        }
      }
      const at = (py * size + px) * 4;
      png.data[at] = a ? Math.round(r / a) : 0;
      png.data[at + 1] = a ? Math.round(g / a) : 0;
      png.data[at + 2] = a ? Math.round(b / a) : 0;
      png.data[at + 3] = Math.round((a / samples ** 2) * 255);
    }
  }
  return PNG.sync.write(png);
}

const out = new URL('../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const [brand, icon] of Object.entries(BRANDS)) {
  for (const [name, size, maskable] of [
    [`${brand}-192.png`, 192, false],
    [`${brand}-512.png`, 512, false],
    [`${brand}-maskable-512.png`, 512, true],
    [`${brand}-apple-touch-180.png`, 180, true],
  ] as const) {
    const file = draw(icon, size, maskable);
    writeFileSync(new URL(name, out), file);
    console.info(`public/icons/${name}: ${file.length} bytes`);
  }
}
