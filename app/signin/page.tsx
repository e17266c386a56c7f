// /signin: team mode's sign-in (components/session/SignInForm.tsx). It reads ?next= and ?link=, so Next renders
// nothing in its place until the URL's search params are known.
import { Suspense } from 'react';
import { SignInForm } from '@/components/session/SignInForm';

export const metadata = { title: 'Sign in · Arborist' };

export default function SignInPage() {
  return (
    <Suspense fallback={null}>
      <SignInForm />
    </Suspense>
  );
}
