/**
 * The client store of docs/product.md#entities-and-their-fields: the auth token (persisted in localStorage),
 * the phone being confirmed, and the sendConfirmCode flag that flips on every confirm-code event
 * (a new code was sent), so code inputs can clear themselves. Server data (auth info, wallets,
 * notifications) lives in TanStack Query, not here.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface SessionState {
  authToken: string | null;
  phone: string;
  sendConfirmCode: boolean;
  setAuthToken: (token: string) => void;
  clearAuth: () => void;
  setPhone: (phone: string) => void;
  toggleSendConfirmCode: () => void;
}

export const SESSION_STORAGE_KEY = 'e-wallet-session';

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      authToken: null,
      phone: '',
      sendConfirmCode: false,
      setAuthToken: (authToken) => set({ authToken }),
      clearAuth: () => set({ authToken: null }),
      setPhone: (phone) => set({ phone }),
      toggleSendConfirmCode: () => set((state) => ({ sendConfirmCode: !state.sendConfirmCode })),
    }),
    {
      name: SESSION_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      // Only the token survives a reload: the phone and the flag belong to one sign-in attempt.
      partialize: (state) => ({ authToken: state.authToken }),
    },
  ),
);

export const getAuthToken = (): string | null => useSessionStore.getState().authToken;
