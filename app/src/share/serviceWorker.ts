// Registers the offline cache (sw.js, generated at build time by
// vite-plugins/share.ts) in production builds. The URL is relative to the
// page, so it works under any base path. ?sw=0 skips it (debugging).

export function registerServiceWorker(w: Window = window): void {
  if (!import.meta.env.PROD) return;
  const nav = w.navigator;
  if (!('serviceWorker' in nav) || !/^https?:$/.test(w.location.protocol)) return;
  if (new URLSearchParams(w.location.search).get('sw') === '0') return;
  const register = () => {
    nav.serviceWorker.register(new URL('sw.js', w.location.href).href, { scope: './' }).catch(() => {
      // No offline cache (private mode, a host without HTTPS): the page works as before.
    });
  };
  if (w.document.readyState === 'complete') register();
  else w.addEventListener('load', register, { once: true });
}
