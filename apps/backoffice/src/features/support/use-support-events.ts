/**
 * The operators' live stream of the support chat (GET /ops/v1/support/events): a conversation that
 * changed on any instance asks the queue and that conversation again. Read with fetch (EventSource
 * cannot send the token), reconnecting with a pause when it breaks.
 */
import { opsCalls } from '@e-wallet/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { session } from '../../shared/api/client.ts';

export function useSupportEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const abort = new AbortController();
    const refresh = (id?: string) => {
      void client.invalidateQueries({ queryKey: ['supportConversations'] });
      void client.invalidateQueries({ queryKey: id ? ['supportConversation', id] : ['supportConversation'] });
    };
    const follow = async () => {
      while (!abort.signal.aborted) {
        try {
          const token = session.token();
          const response = await fetch(opsCalls.supportEvents.path, {
            headers: { accept: 'text/event-stream', ...(token ? { authorization: `Token ${token}` } : {}) },
            signal: abort.signal,
          });
          if (!response.ok || !response.body) throw new Error(String(response.status));
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let end = buffer.indexOf('\n\n');
            while (end >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const event = /^event: (.*)$/m.exec(block)?.[1];
              const data = /^data: (.*)$/m.exec(block)?.[1];
              if (event === 'conversation' && data) refresh((JSON.parse(data) as { id: string }).id);
              if (event === 'ready') refresh();
              end = buffer.indexOf('\n\n');
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    };
    void follow();
    return () => abort.abort();
  }, [client]);
}
