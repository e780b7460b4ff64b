/**
 * Export of what is on screen, in the browser: an SVG chart is cloned with
 * its computed styles inlined (so it looks the same outside the page, in
 * either theme), and rasterised to PNG through a canvas. Any other element
 * (the graph's React Flow viewport, HTML nodes over SVG edges) is wrapped in
 * an SVG <foreignObject> with the same inlined styles.
 */

/** Properties that decide how SVG marks and text look. */
const SVG_PROPERTIES = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "opacity",
  "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline", "visibility", "display",
];

function inlineStyles(source: Element, clone: Element, properties: readonly string[] | null): void {
  const computed = getComputedStyle(source);
  const names = properties ?? Array.from(computed);
  const style = names.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(";");
  clone.setAttribute("style", style);
  const sourceChildren = source.children;
  const cloneChildren = clone.children;
  for (let i = 0; i < sourceChildren.length; i++) inlineStyles(sourceChildren[i]!, cloneChildren[i]!, properties);
}

/** A standalone SVG document of an <svg> on the page. */
export function svgToString(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone, SVG_PROPERTIES);
  const { width, height } = svgSize(svg);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
}

/** An SVG document showing an HTML element (and any SVG inside it) as it is drawn now. */
export function elementToSvgString(element: HTMLElement, background: string): string {
  const { width, height } = element.getBoundingClientRect();
  const clone = element.cloneNode(true) as HTMLElement;
  inlineStyles(element, clone, null);
  clone.setAttribute("xmlns", "http://www.w3.org/1999/xhtml");
  const body = new XMLSerializer().serializeToString(clone);
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="100%" height="100%" fill="${background}"/><foreignObject x="0" y="0" width="${w}" height="${h}">${body}</foreignObject></svg>`;
}

function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  const box = svg.viewBox.baseVal;
  if (box && box.width > 0 && box.height > 0) return { width: box.width, height: box.height };
  const rect = svg.getBoundingClientRect();
  return { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
}

/** Draws an SVG document on a canvas at `scale` (2: crisp on a projector) and returns the PNG. */
export async function svgStringToPng(svgText: string, background: string, scale = 2): Promise<Blob> {
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error("the browser could not draw the SVG"));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await loaded;
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2D canvas");
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("PNG encoding failed"))), "image/png"));
}

export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The page's background colour (what an exported picture sits on). */
export function pageBackground(doc: Document = document): string {
  const colour = getComputedStyle(doc.body).backgroundColor;
  return colour && colour !== "rgba(0, 0, 0, 0)" ? colour : "#ffffff";
}

/** A file name from a title: lower case, dashes, no odd characters. */
export function fileName(title: string, extension: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "baton";
  return `${base}.${extension}`;
}

/**
 * Exports the first element matching `selector` in `doc`: an <svg> as it
 * is, anything else through <foreignObject>.
 */
export async function exportElement(doc: Document, selector: string, format: "svg" | "png", title: string): Promise<void> {
  const element = doc.querySelector(selector);
  if (!element) throw new Error(`nothing to export (${selector})`);
  const background = pageBackground(doc);
  const text = element instanceof SVGSVGElement ? svgToString(element) : elementToSvgString(element as HTMLElement, background);
  const blob = format === "svg" ? new Blob([text], { type: "image/svg+xml" }) : await svgStringToPng(text, background);
  download(blob, fileName(title, format));
}
