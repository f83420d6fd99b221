// Store settings the server writes into index.html as a JSON script tag (see buildApp).
// Under `vite` dev there is no server-rendered tag, so the defaults apply.

export interface StoreConfig {
  storeName: string;
  storeEmail: string;
}

const DEFAULT_STORE_CONFIG: StoreConfig = { storeName: 'Threadline', storeEmail: 'support@threadline.example' };

function readStoreConfig(): StoreConfig {
  const text = typeof document === 'undefined' ? null : document.getElementById('store-config')?.textContent;
  if (!text) return DEFAULT_STORE_CONFIG;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return DEFAULT_STORE_CONFIG;
    const { storeName, storeEmail } = parsed as Record<string, unknown>;
    return {
      storeName: typeof storeName === 'string' && storeName.trim() ? storeName : DEFAULT_STORE_CONFIG.storeName,
      storeEmail: typeof storeEmail === 'string' && storeEmail.trim() ? storeEmail : DEFAULT_STORE_CONFIG.storeEmail,
    };
  } catch {
    return DEFAULT_STORE_CONFIG;
  }
}

export const storeConfig: StoreConfig = readStoreConfig();
