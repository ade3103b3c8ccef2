/**
 * Texts of the policy block (features/policy). The documents, company and regions themselves
 * come from the brand's configuration (apps/web/brands/<brand>.json) in both languages.
 */
export const policyRu = {
  policy: {
    documents: 'Документы',
    newTab: '(PDF, откроется в новой вкладке)',
    operator: 'Оператор: {{company}}, {{label}} {{number}}',
    restricted: 'Услуги не предоставляются',
  },
};

export const policyEn: typeof policyRu = {
  policy: {
    documents: 'Documents',
    newTab: '(PDF, opens in a new tab)',
    operator: 'Operator: {{company}}, {{label}} {{number}}',
    restricted: 'Service not available in',
  },
};
