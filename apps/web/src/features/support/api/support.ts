/**
 * The support chat's calls (docs/decisions/support.md#support-chat): the conversation (newest first, pages),
 * a message with an Idempotency-Key kept for every retry of one press of 'Отправить', and the read mark.
 * An operator's answer arrives as a `support` notification on the live stream (shared/live), which
 * asks the conversation again.
 */
import type { SupportImageUpload } from '@e-wallet/contract';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import { asJpeg, base64Of } from '../../../shared/identification/document-photos.ts';

export const SUPPORT_KEY = ['supportMessages'] as const;

export function useSupportMessages() {
  return useInfiniteQuery({
    queryKey: SUPPORT_KEY,
    queryFn: ({ pageParam, signal }) =>
      callOk('supportMessages', { query: pageParam ? { cursor: pageParam } : {}, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export type SupportPage = InfiniteData<Awaited<ReturnType<typeof callOk<'supportMessages'>>>>;

/** The picked images drawn again as JPEGs at most 1600 px (as the documents' photos are). */
async function uploads(files: readonly File[]): Promise<Array<z.infer<typeof SupportImageUpload>>> {
  const out: Array<z.infer<typeof SupportImageUpload>> = [];
  for (const file of files)
    out.push({ content_type: 'image/jpeg', data: await base64Of(await asJpeg(file)) });
  return out;
}

export function useSendSupportMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { text: string; operationId?: string | undefined; files: readonly File[] }) => {
      const images = await uploads(input.files);
      return startMoneyAttempt('supportSend').send({
        body: {
          text: input.text,
          ...(input.operationId ? { operation_id: input.operationId } : {}),
          ...(images.length ? { images } : {}),
        },
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: SUPPORT_KEY }),
  });
}

export function useMarkSupportRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callOk('supportRead'),
    onSuccess: () => {
      queryClient.setQueryData<SupportPage>(SUPPORT_KEY, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, unread: 0 })) } : data,
      );
    },
  });
}
