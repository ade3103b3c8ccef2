export function App() {
  return <main>E-Wallet</main>;
}
