/**
 * Export of what is on screen, in the browser: an SVG chart is cloned with
 * its computed styles inlined (so it looks the same outside the page, in
 * either theme); a view that is not one SVG (the graph: HTML nodes over SVG
 * edges) builds its own pure-SVG picture from its model and hands it over
 * (`[data-picture-source]`, PICTURE_EVENT). Either is rasterised to PNG at
 * 2x through a canvas. Nothing is ever wrapped in a <foreignObject>.
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

/** The event a view that draws its own picture (the graph) answers, on its `[data-picture-source]` element. */
export const PICTURE_EVENT = "baton:picture";

/** What a picture source fills in: the SVG text, or an error saying why there is none yet. */
export interface PictureRequest {
  svg: string | null;
  error: string | null;
}

/**
 * Asks a picture source for its SVG. The event is dispatched synchronously,
 * also into a same-origin frame (presentation mode), so the answer is there
 * when dispatchEvent returns.
 */
export function requestPicture(source: Element): string {
  const detail: PictureRequest = { svg: null, error: null };
  const view = source.ownerDocument.defaultView;
  const Event = view?.CustomEvent ?? CustomEvent;
  source.dispatchEvent(new Event(PICTURE_EVENT, { detail }));
  if (detail.svg === null) throw new Error(detail.error ?? "this view has no picture yet");
  return detail.svg;
}

function svgOf(element: Element): SVGSVGElement {
  // instanceof fails across frames (each has its own SVGSVGElement), so the name decides
  if (element.namespaceURI === "http://www.w3.org/2000/svg" && element.localName === "svg") return element as SVGSVGElement;
  throw new Error("only SVG charts and the graph can be exported");
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
 * Exports the first element matching `selector` in `doc`: a picture source
 * through its own picture, an <svg> as it is drawn.
 */
export async function exportElement(doc: Document, selector: string, format: "svg" | "png", title: string): Promise<void> {
  const element = doc.querySelector(selector);
  if (!element) throw new Error(`nothing to export (${selector})`);
  const background = pageBackground(doc);
  const text = element.hasAttribute("data-picture-source") ? requestPicture(element) : svgToString(svgOf(element));
  const blob = format === "svg" ? new Blob([text], { type: "image/svg+xml" }) : await svgStringToPng(text, background);
  download(blob, fileName(title, format));
}
