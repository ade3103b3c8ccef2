import { accountEn } from './account-texts.ts';
import { moneyEn } from './money-texts.ts';
import { policyEn } from './policy-texts.ts';
import type { Texts } from './ru.ts';
import { securityEn } from './security-texts.ts';

/** English texts. The `Texts` type makes a missing key a compile error; i18n.test.ts checks both ways. */
export const en: Texts = {
  common: {
    continue: 'Continue',
    back: 'Back',
    close: 'Close',
    loading: 'Loading…',
    networkError: 'No connection to the server. Check your internet and try again',
    unexpectedError: 'Something went wrong. Please try again later',
  },
  brand: {
    name: 'E-Wallet',
    tagline: 'Electronic wallet',
  },
  routes: {
    Home: 'Home',
    History: 'History',
    Wallet: 'Accounts',
    WalletId: 'Account',
    WalletPaymentsFinish: 'Top-up result',
    WalletTopUp: 'Top up',
    WalletWithdrawal: 'Withdraw',
    WalletSave: 'Transfer',
    WalletExchange: 'Exchange',
    Payment: 'Payment',
    Settings: 'Settings',
    AuthIn: 'Sign in to the wallet',
    LogIn: 'Sign in',
    Register: 'Registration',
  },
  layout: {
    greeting: 'Hello, {{name}}!',
    greetingAnonymous: 'Hello!',
    subtitle: 'Your electronic wallet',
    logout: 'Sign out',
    home: 'Home',
  },
  errorBoundary: {
    title: 'Something went wrong',
    text: 'This page could not be shown. Please try again.',
    retry: 'Try again',
    home: 'Home',
  },
  auth: {
    /** The other language's name in its own words: the switch before sign-in. */
    language: 'Русский',
    landing: {
      title: 'A wallet for your phone number',
      text: 'Top up, send money and pay by QR code, all in one app.',
      brandTitle: 'Pay and send in seconds',
      brandText:
        'QR payments, withdrawals to a card and transfers to friends. Lost your phone? Freeze the wallet in one tap.',
      imageAlt: 'A phone with a bank card and coins',
      register: 'Register',
      haveAccount: 'Already have an account?',
      login: 'Sign in',
    },
    register: {
      title: 'Registration',
      progress: 'Step {{step}} of {{total}}',
      detailsText: 'Fill in your details and we will text a code to your phone.',
      firstName: 'First name',
      lastName: 'Last name',
      email: 'E-mail',
      phone: 'Phone',
      continue: 'Continue',
      haveAccount: 'Already registered?',
      login: 'Sign in',
      codeTitle: 'Confirm your number',
      codeText: 'We have sent a text with a code to',
      changeNumber: 'Change number',
      pinTitle: 'Create a PIN',
      pinText: 'Four digits. The PIN confirms withdrawals, transfers and payments.',
      pinLabel: 'PIN',
      pinRepeat: 'Repeat the PIN',
      pinRepeatDigit: 'PIN again: character {{n}} of {{total}}',
      pinMismatch: 'The PINs do not match',
    },
    login: {
      title: 'Sign in',
      phoneText: 'Enter the phone number you registered with.',
      phoneHelp: 'We will text a confirmation code to this number.',
      sendCode: 'Send code',
      noAccount: 'No account yet?',
      register: 'Register',
      backToLanding: 'To the start page',
      codeTitle: 'Enter the code from the text',
      codeText: 'The code was sent to',
      enter: 'Sign in',
      back: 'Back',
    },
    code: {
      label: 'Code from the text message',
      digit: 'Digit {{n}} of {{total}}',
      sendAgain: 'Send the code again',
      sendAgainIn: 'Send the code again in {{seconds}} s',
      sent: 'A new code has been sent',
    },
  },
  validation: {
    firstNameRequired: 'Enter your first name',
    nameInvalid: 'Letters, space, hyphen and apostrophe only',
    emailRequired: 'Enter your e-mail',
    emailInvalid: 'Check the e-mail, for example name@example.com',
    phoneIncomplete: 'Enter the full phone number',
  },
  phone: {
    country: 'Country',
    chooseCountry: 'Country: {{name}}, code {{dial}}. Choose another',
    dialogTitle: 'Choose a country',
    search: 'Search for a country',
    searchPlaceholder: 'Country name',
    noResults: 'Nothing found',
    mask: 'Number format',
  },
  // The money screens (wallet, history, accounts, layout panels).
  ...moneyEn,
  ...accountEn,
  ...policyEn,
  // The identification section and the Settings route.
  ...securityEn,
};
