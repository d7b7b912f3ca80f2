/** `Content-Disposition` with an RFC 6266 / RFC 8187 safe filename (files downloads, the docs server's raw pages). */

export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return fallback === name ? `${kind}; filename="${name}"` : `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function attachmentDisposition(name: string): string {
  return contentDisposition('attachment', name);
}
