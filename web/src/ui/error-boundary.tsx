import { Button } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function ErrorState() {
  const { t } = useTranslation();
  return (
    <main style={{ padding: '3rem 1rem', textAlign: 'center' }}>
      <h1 style={{ fontSize: '1.4rem' }}>{t('SomethingWentWrong')}</h1>
      <Button mt="md" onClick={() => window.location.reload()}>
        {t('TryAgain')}
      </Button>
    </main>
  );
}

/**
 * Catches render errors and failed lazy chunks (e.g. an old chunk gone after a deployment): the
 * reload fetches the current build.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorState /> : this.props.children;
  }
}
