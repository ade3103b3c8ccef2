/**
 * Managing money's errors (docs/decisions/managing-money.md, 'Managing money'): mostly how many of each a person
 * may keep, in both languages; errors.ts puts them in the one table.
 */
export const MONEY_MANAGEMENT_ERRORS = {
  CATEGORY_LIMIT: {
    http: 409,
    ru: 'Своих категорий может быть не больше {limit}',
    en: 'You can have at most {limit} categories of your own',
  },
  WALLET_CLOSE_GOALS: {
    http: 409,
    ru: 'Сначала удалите копилки: их деньги вернутся на счёт',
    en: 'Delete your savings goals first: their money returns to your account',
  },
  BUDGET_LIMIT: {
    http: 409,
    ru: 'Бюджетов может быть не больше {limit}',
    en: 'You can have at most {limit} budgets',
  },
  GOAL_LIMIT: {
    http: 409,
    ru: 'Копилок может быть не больше {limit}',
    en: 'You can have at most {limit} savings goals',
  },
} as const satisfies Record<string, { http: number; ru: string; en: string }>;
