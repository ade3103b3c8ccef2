/**
 * Categories of operations (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): GET
 * /v2/wallet/categories, a person's own (POST), and the category of one of their operations (PATCH
 * /v2/wallet/transaction/:id). Shared, since the history's rows (shared/ui) and the savings screens both read
 * them.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { callOk } from './client.ts';

export type Category = AnswerOf<'categories'>['results'][number];

export const categoriesQuery = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: ({ signal }) => callOk('categories', { signal }),
    staleTime: 5 * 60_000,
  });

/** Sets an operation's category; the history, statistics and budgets read it again. */
export async function setCategory(queryClient: QueryClient, transferId: string, category: string) {
  const answer = await callOk('transactionCategory', { params: { id: transferId }, body: { category } });
  await Promise.all(
    ['transactions', 'stat', 'budgets'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
  );
  return answer;
}

export async function createCategory(queryClient: QueryClient, name: string): Promise<Category> {
  const made = await callOk('categoryCreate', { body: { name } });
  await queryClient.invalidateQueries({ queryKey: ['categories'] });
  return made;
}
