// badge.svg: "CGP conformant · N/61" for the merged run (N = anchors witnessed, 61 applicable), with the
// applicable count stated when some anchors do not apply ("CGP conformant · 34/34 applicable of 61"), or
// "CGP not conformant · …" when a MUST failed or an applicable anchor has no passing witness.

import { conformanceVerdict } from './build.js';
import type { CoverageReport } from './types.js';

export interface BadgeText {
  label: string;
  message: string;
  conformant: boolean;
}

export function badgeText(report: CoverageReport): BadgeText {
  const verdict = conformanceVerdict(report);
  const s = report.summary;
  const total = report.anchors.length;
  const ratio = s.applicable === total ? `${s.witnessed}/${total}` : `${s.witnessed}/${s.applicable} applicable of ${total}`;
  if (verdict.conformant) {
    const warnings = s.warning > 0 ? ` · ${s.warning} warning${s.warning === 1 ? '' : 's'}` : '';
    return { label: 'CGP', message: `conformant · ${ratio}${warnings}`, conformant: true };
  }
  const parts = [`not conformant · ${ratio}`];
  if (verdict.mustFailed.length > 0) parts.push(`${verdict.mustFailed.length} MUST failed`);
  if (verdict.unwitnessed.length > 0) parts.push(`${verdict.unwitnessed.length} unwitnessed`);
  return { label: 'CGP', message: parts.join(' · '), conformant: false };
}

export function renderBadge(report: CoverageReport): string {
  const { label, message, conformant } = badgeText(report);
  return badgeSvg(label, message, conformant ? '#2e7d32' : '#c62828', `${label} ${message}`);
}

/** A two-part flat badge (label on grey, message on `color`); byte-stable for the same text. */
export function badgeSvg(label: string, message: string, color: string, title: string): string {
  const labelWidth = textWidth(label) + 12;
  const messageWidth = textWidth(message) + 12;
  const width = labelWidth + messageWidth;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${labelWidth}" height="20" fill="#555"/>`,
    `<rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${color}"/>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${labelWidth / 2}" y="14">${esc(label)}</text>`,
    `<text x="${labelWidth + messageWidth / 2}" y="14">${esc(message)}</text>`,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/** A deterministic width estimate for Verdana 11px (no font measuring: the SVG must be byte-stable). */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if ("il.,:;|!'· ".includes(ch)) w += 4;
    else if ('fjrt()/'.includes(ch)) w += 5;
    else if ('mwMW'.includes(ch)) w += 10;
    else if (/[A-Z0-9]/.test(ch)) w += 8;
    else w += 7;
  }
  return w;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
